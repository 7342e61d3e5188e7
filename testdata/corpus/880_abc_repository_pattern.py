"""The repository pattern: an abstract Repository, an in-memory implementation and a service."""
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Optional


@dataclass
class User:
    id: int
    email: str
    active: bool = True


class Repository(ABC):
    @abstractmethod
    def get(self, id: int) -> Optional[User]: ...

    @abstractmethod
    def add(self, user: User) -> None: ...

    def get_or_raise(self, id):
        user = self.get(id)
        if user is None:
            raise LookupError(f"user {id} not found")
        return user


class MemoryRepo(Repository):
    def __init__(self):
        self._rows = {}

    def get(self, id):
        return self._rows.get(id)

    def add(self, user):
        self._rows[user.id] = user

    def __len__(self):
        return len(self._rows)


class UserService:
    def __init__(self, repo: Repository):
        self.repo = repo

    def register(self, email):
        user = User(len(self.repo) + 1, email.lower())
        self.repo.add(user)
        return user

    def deactivate(self, id):
        user = self.repo.get_or_raise(id)
        user.active = False
        return user


svc = UserService(MemoryRepo())
print(svc.register("Ana@X.org"), svc.register("bo@y.net"))
print(svc.deactivate(1), svc.repo.get(2))
try:
    svc.deactivate(9)
except LookupError as e:
    print("LookupError:", e)
print(isinstance(svc.repo, Repository), len(svc.repo))
