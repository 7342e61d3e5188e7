"""A temperature class whose properties validate and convert on assignment."""


class Temperature:
    def __init__(self, celsius=0.0):
        self.celsius = celsius

    @property
    def celsius(self):
        return self._c

    @celsius.setter
    def celsius(self, value):
        if value < -273.15:
            raise ValueError(f"{value} is below absolute zero")
        self._c = value

    @property
    def fahrenheit(self):
        return self._c * 9 / 5 + 32

    @fahrenheit.setter
    def fahrenheit(self, value):
        self.celsius = (value - 32) * 5 / 9

    @property
    def kelvin(self):
        return self._c + 273.15

    def __repr__(self):
        return f"Temperature({self._c:.2f})"


t = Temperature(25)
print(t, t.fahrenheit, round(t.kelvin, 2))
t.fahrenheit = 212
print(t, t.celsius)
try:
    t.celsius = -300
except ValueError as e:
    print("ValueError:", e)
try:
    t.kelvin = 0
except AttributeError as e:
    print("AttributeError:", e)
print(sorted(vars(t)))
print([repr(Temperature(c)) for c in (0, 37.5, -40)])
