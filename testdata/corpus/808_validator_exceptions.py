"""Validating user records with a hierarchy of custom exceptions caught by their base."""


class ValidationError(Exception):
    def __init__(self, field, message):
        super().__init__(f"{field}: {message}")
        self.field = field


class MissingField(ValidationError):
    def __init__(self, field):
        super().__init__(field, "is required")


class BadValue(ValidationError):
    pass


def validate(record):
    for key in ("name", "email", "age"):
        if key not in record:
            raise MissingField(key)
    if "@" not in record["email"]:
        raise BadValue("email", f"{record['email']!r} is not an address")
    if not 0 < record["age"] < 150:
        raise BadValue("age", f"{record['age']} out of range")
    return True


records = [
    {"name": "ana", "email": "ana@x.org", "age": 31},
    {"name": "bo", "age": 20},
    {"name": "cy", "email": "cy-at-x", "age": 40},
    {"name": "di", "email": "di@x.org", "age": 200},
]
errors = {}
for i, rec in enumerate(records):
    try:
        validate(rec)
        print(i, "ok")
    except ValidationError as e:
        print(i, type(e).__name__, e, "| field =", e.field)
        errors[e.field] = errors.get(e.field, 0) + 1
print(errors)
print(issubclass(MissingField, ValidationError), MissingField.__mro__[1].__name__)
print(repr(BadValue("x", "y")), BadValue("x", "y").args)
