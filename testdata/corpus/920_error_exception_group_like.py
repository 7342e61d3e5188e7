"""Collecting several validation errors into one custom exception that is raised uncaught."""


class FieldError(Exception):
    def __init__(self, field, problem):
        super().__init__(f"{field} {problem}")
        self.field = field


class ValidationFailed(Exception):
    def __init__(self, errors):
        self.errors = errors
        fields = ", ".join(e.field for e in errors)
        super().__init__(f"{len(errors)} invalid field(s): {fields}")


def validate(form):
    errors = []
    if not form.get("user"):
        errors.append(FieldError("user", "is empty"))
    if len(form.get("password", "")) < 8:
        errors.append(FieldError("password", "is too short"))
    if "@" not in form.get("email", ""):
        errors.append(FieldError("email", "has no @"))
    if errors:
        raise ValidationFailed(errors)
    return form


print(validate({"user": "ana", "password": "correct horse", "email": "a@x"})["user"])
try:
    validate({"user": "", "password": "x", "email": "a@x"})
except ValidationFailed as e:
    for err in e.errors:
        print(" -", err)
validate({"user": "bo"})
