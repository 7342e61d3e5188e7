"""Building a command-line usage line from functions' signatures with inspect."""
import inspect


def deploy(service: str, version: str = "latest", *, replicas: int = 1, dry_run: bool = False):
    """Deploy a service."""


def rollback(service, steps=1):
    """Roll back a service."""


def status(*services, verbose=False, **filters):
    """Show status."""


def usage(fn):
    parts = [fn.__name__]
    for name, p in inspect.signature(fn).parameters.items():
        if p.kind is p.VAR_POSITIONAL:
            parts.append(f"[{name}...]")
        elif p.kind is p.VAR_KEYWORD:
            parts.append(f"[--{name}=...]")
        elif p.default is p.empty:
            parts.append(f"<{name}>")
        elif p.kind is p.KEYWORD_ONLY:
            parts.append(f"[--{name}={p.default!r}]")
        else:
            parts.append(f"[{name}={p.default!r}]")
    return " ".join(parts) + "  # " + fn.__doc__


for fn in (deploy, rollback, status):
    print(usage(fn))
sig = inspect.signature(deploy)
print(sig)
print([p.annotation.__name__ for p in sig.parameters.values()])
print(sig.bind("api", replicas=3).arguments)
