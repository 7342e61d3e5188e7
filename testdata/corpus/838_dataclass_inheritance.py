"""Dataclass inheritance: base fields first, defaults, overriding and super in __post_init__."""
from dataclasses import dataclass, field, fields, asdict


@dataclass
class Animal:
    name: str
    sound: str = "..."
    tags: list = field(default_factory=list)

    def __post_init__(self):
        self.name = self.name.title()

    def speak(self):
        return f"{self.name} says {self.sound}"


@dataclass
class Dog(Animal):
    sound: str = "woof"
    breed: str = "mixed"

    def __post_init__(self):
        super().__post_init__()
        self.tags.append("dog")


@dataclass
class Puppy(Dog):
    age_months: int = 3

    def speak(self):
        return super().speak() + "!"


pets = [Animal("generic"), Dog("rex", breed="lab"), Puppy("bit", age_months=2)]
for p in pets:
    print(p)
    print("  ", p.speak())
print([f.name for f in fields(Puppy)])
print(asdict(pets[2]))
print(Dog("rex", breed="lab") == pets[1], Dog("a") == Animal("a", "woof", ["dog"]))
