class AppError(Exception):
    """Base of the app's errors."""


class ValidationError(AppError):
    def __init__(self, field, message):
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


class NotFound(AppError, KeyError):
    def __str__(self):
        return f"missing {self.args[0]!r}"


class Retry(Exception):
    def __init__(self, attempts):
        self.attempts = attempts

    def __repr__(self):
        return f"Retry(attempts={self.attempts})"


def validate(user):
    if "@" not in user.get("email", ""):
        raise ValidationError("email", "invalid address")
    return True


for user in [{"email": "a@b.c"}, {"email": "nope"}]:
    try:
        print(validate(user))
    except AppError as e:
        print(type(e).__name__, e, e.field, e.args, isinstance(e, Exception))

try:
    raise NotFound("user-7")
except KeyError as e:
    print("KeyError caught:", e, repr(e), e.args)

try:
    raise Retry(3)
except Exception as e:
    print(str(e) == "", repr(e), e.attempts, e.args)

try:
    try:
        raise ValidationError("age", "negative")
    except ValidationError as e:
        raise AppError("wrapped") from e
except AppError as outer:
    print(outer, "<-", outer.__cause__, type(outer.__cause__).__name__)

print(issubclass(NotFound, LookupError), NotFound.__mro__[1].__name__, AppError.__doc__)
errors = []
for exc in (ValidationError("x", "y"), NotFound("k"), Retry(1)):
    try:
        raise exc
    except (ValidationError, NotFound) as e:
        errors.append(type(e).__name__)
    except Exception as e:
        errors.append("other:" + type(e).__name__)
print(errors)


class Quiet(Exception):
    pass


try:
    raise Quiet
except Quiet as e:
    print(type(e).__name__, e.args)
e = ValidationError("f", "m")
e.add_note("see docs")
print(e.__notes__, str(e))
