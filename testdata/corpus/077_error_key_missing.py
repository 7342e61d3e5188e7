config = {
    "host": "localhost",
    "port": 8080,
    "debug": True,
}


def get_setting(name):
    return config[name]


settings = {key: get_setting(key) for key in ["host", "port", "timeout"]}
for key, value in settings.items():
    print(key, value)
