"""Mixins for JSON and repr on model classes, with the MRO printed."""
import json


class ReprMixin:
    def __repr__(self):
        fields = ", ".join(f"{k}={v!r}" for k, v in self.__dict__.items())
        return f"{type(self).__name__}({fields})"


class JsonMixin:
    def to_json(self):
        return json.dumps(self.__dict__, sort_keys=True)


class Model:
    registry = []

    def __init__(self, **kw):
        for k, v in kw.items():
            setattr(self, k, v)
        Model.registry.append(self)

    def describe(self):
        return "model"


class User(ReprMixin, JsonMixin, Model):
    def describe(self):
        return "user/" + super().describe()


class Admin(User):
    def describe(self):
        return "admin/" + super().describe()


u = User(name="ana", age=30)
a = Admin(name="root", level=9)
print(u, a)
print(u.to_json(), a.to_json())
print(a.describe())
print([c.__name__ for c in Admin.__mro__])
print(len(Model.registry), Admin.mro()[1] is User)
