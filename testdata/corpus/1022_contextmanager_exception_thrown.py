"""An exception raised in the with-body is thrown into the generator at its yield."""
from contextlib import contextmanager


class ServiceError(Exception):
    pass


@contextmanager
def translate_errors(service):
    try:
        yield
    except KeyError as e:
        raise ServiceError(f"{service}: missing key {e}") from e
    except ServiceError:
        print("already a ServiceError, passing through")
        raise
    finally:
        print(f"{service}: cleanup")


users = {"u1": "Ann"}
for uid in ["u1", "u2"]:
    try:
        with translate_errors("users"):
            print("found", users[uid])
    except ServiceError as e:
        print("ServiceError:", e, "| cause:", repr(e.__cause__))

try:
    with translate_errors("billing"):
        raise ServiceError("card declined")
except ServiceError as e:
    print("caught:", e)

try:
    with translate_errors("math"):
        1 / 0
except ZeroDivisionError as e:
    print("untranslated:", e)


@contextmanager
def retry_marker():
    try:
        yield
    except ValueError:
        print("handled ValueError inside the generator")


with retry_marker():
    int("not a number")
print("execution continues after a suppressed error")
