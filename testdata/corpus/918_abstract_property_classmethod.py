"""Abstract properties and abstract class methods in a base class, implemented by subclasses."""
from abc import ABC, abstractmethod


class Storage(ABC):
    @property
    @abstractmethod
    def scheme(self) -> str: ...

    @classmethod
    @abstractmethod
    def from_url(cls, url): ...

    def describe(self):
        return f"{self.scheme}://{self.location}"


class S3(Storage):
    scheme = "s3"

    def __init__(self, bucket):
        self.location = bucket

    @classmethod
    def from_url(cls, url):
        return cls(url.split("://", 1)[1])


class Local(Storage):
    def __init__(self, path):
        self.location = path

    @property
    def scheme(self):
        return "file"

    @classmethod
    def from_url(cls, url):
        return cls(url[len("file://"):])


class Broken(Storage):
    scheme = "x"


for url in ["s3://logs/2024", "file:///tmp/x"]:
    cls = S3 if url.startswith("s3") else Local
    st = cls.from_url(url)
    print(type(st).__name__, st.describe())
print(sorted(Storage.__abstractmethods__), sorted(Broken.__abstractmethods__))
try:
    Broken()
except TypeError as e:
    print("TypeError:", e)
