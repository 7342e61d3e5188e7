"""A frozen dataclass of settings; a later assignment raises FrozenInstanceError."""
from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Settings:
    retries: int = 3
    timeout: float = 1.5
    verbose: bool = False


base = Settings()
fast = replace(base, timeout=0.2)
print(base, fast)
print(base == Settings(), hash(base) == hash(Settings()))
loud = replace(fast, verbose=True)
print(loud.verbose, fast.verbose)
loud.retries = 10
print("not reached")
