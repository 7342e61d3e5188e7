class AppError(Exception):
    pass


class ConfigError(AppError):
    pass


class NetworkError(AppError):
    pass


class TimeoutError_(NetworkError):
    pass


def operation(code: int):
    if code == 1:
        raise ConfigError("missing key 'port'")
    if code == 2:
        raise NetworkError("connection refused")
    if code == 3:
        raise TimeoutError_("timed out after 3 attempts")
    if code == 4:
        raise KeyError("not an app error")
    return "ok"


for code in range(5):
    try:
        print(code, operation(code))
    except NetworkError as e:
        print(code, "network problem:", type(e).__name__, e)
    except AppError as e:
        print(code, "app problem:", type(e).__name__, e)
    except Exception as e:
        print(code, "other:", type(e).__name__, e)

print(isinstance(TimeoutError_("t"), AppError), isinstance(ConfigError("c"), NetworkError))
print(isinstance(ConfigError("x"), Exception))
