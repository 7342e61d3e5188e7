# Raising something that is not an exception, and catching a class that is not
# an exception class, are TypeErrors.
class NotAnError:
    pass


try:
    raise NotAnError()
except TypeError as e:
    print(type(e).__name__, e)
try:
    raise NotAnError
except TypeError as e:
    print(type(e).__name__, e)
try:
    try:
        raise ValueError("v")
    except NotAnError:
        pass
except TypeError as e:
    print(type(e).__name__, e)
