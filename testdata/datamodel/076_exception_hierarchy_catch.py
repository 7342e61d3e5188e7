# except clauses match subclasses; the first matching clause wins; a tuple
# catches any of its classes.
class AppError(Exception): pass
class DBError(AppError): pass
class Timeout(DBError, TimeoutError): pass


for exc in [Timeout("t"), DBError("d"), AppError("a"), TimeoutError("os")]:
    try:
        raise exc
    except DBError as e:
        print("DBError clause:", type(e).__name__)
    except (AppError, OSError) as e:
        print("tuple clause:", type(e).__name__)
print([c.__name__ for c in Timeout.__mro__])
print(issubclass(Timeout, OSError), isinstance(Timeout(), AppError))
