"""A plugin registry filled by a class decorator; looking up an unknown name raises."""
REGISTRY = {}


class UnknownPlugin(LookupError):
    pass


def plugin(name):
    def register(cls):
        cls.plugin_name = name
        REGISTRY[name] = cls
        return cls
    return register


@plugin("csv")
class CsvExporter:
    def export(self, rows):
        return "\n".join(",".join(map(str, r)) for r in rows)


@plugin("tsv")
class TsvExporter(CsvExporter):
    def export(self, rows):
        return super().export(rows).replace(",", "\t")


def get(name):
    try:
        return REGISTRY[name]()
    except KeyError:
        raise UnknownPlugin(f"no plugin {name!r}; have {sorted(REGISTRY)}") from None


rows = [(1, "a"), (2, "b")]
for name in ["csv", "tsv"]:
    exp = get(name)
    print(type(exp).__name__, exp.plugin_name, repr(exp.export(rows)))
print(TsvExporter.plugin_name, CsvExporter.plugin_name)
get("xml")
