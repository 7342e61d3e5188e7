import configparser

cfg = configparser.ConfigParser()
cfg.read("data/settings.ini")
print(cfg.sections())
print(cfg["server"]["host"], cfg.getint("server", "port"), cfg.getboolean("server", "debug"))
print(dict(cfg["database"]))
