"""dataclasses.fields metadata driving a generic table printer and a diff of two records."""
from dataclasses import dataclass, field, fields, astuple


@dataclass
class Server:
    name: str = field(metadata={"width": 8})
    cpu: int = field(default=2, metadata={"width": 4, "unit": "vCPU"})
    ram: int = field(default=4, metadata={"width": 4, "unit": "GB"})
    region: str = field(default="eu", metadata={"width": 6})


def table(rows):
    fs = fields(rows[0])
    head = " ".join(f.name.ljust(f.metadata["width"]) for f in fs)
    lines = [head]
    for r in rows:
        lines.append(" ".join(str(v).ljust(f.metadata["width"]) for f, v in zip(fs, astuple(r))))
    return "\n".join(lines)


def diff(a, b):
    return {f.name: (getattr(a, f.name), getattr(b, f.name))
            for f in fields(a) if getattr(a, f.name) != getattr(b, f.name)}


servers = [Server("web1"), Server("db1", 8, 32), Server("cache", ram=16, region="us")]
print(table(servers))
print(diff(servers[0], servers[1]))
print({f.name: f.metadata.get("unit", "-") for f in fields(Server)})
print(fields(Server)[1].default, fields(Server)[0].type)
