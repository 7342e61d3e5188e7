"""A base exporter whose subclass forgot to override a method; the base raises."""


class Exporter:
    def export(self, rows):
        header = self.header(rows)
        return [header] + [self.line(r) for r in rows]

    def header(self, rows):
        return ",".join(rows[0])

    def line(self, row):
        raise NotImplementedError(f"{type(self).__name__}.line() must be implemented")


class CsvExporter(Exporter):
    def line(self, row):
        return ",".join(str(v) for v in row.values())


class LazyExporter(Exporter):
    pass


rows = [{"a": 1, "b": 2}, {"a": 3, "b": 4}]
print(CsvExporter().export(rows))
print(LazyExporter().header(rows))
print(LazyExporter().export(rows))
