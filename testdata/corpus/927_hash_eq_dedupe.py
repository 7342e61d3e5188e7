"""De-duplicating contacts with __eq__ and __hash__ on a normalised key."""


class Contact:
    def __init__(self, name, email):
        self.name = name
        self.email = email

    def _key(self):
        return self.email.strip().lower()

    def __eq__(self, other):
        if not isinstance(other, Contact):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        return f"Contact({self.name!r})"


raw = [Contact("Ana", "ana@x.org"), Contact("ANA", " Ana@X.org "), Contact("Bo", "bo@y.net"),
       Contact("Bob", "BO@y.net"), Contact("Cy", "cy@z.com")]
unique = list(dict.fromkeys(raw))
print(unique, len(set(raw)))
index = {c: i for i, c in enumerate(raw)}
print(index[Contact("?", "ANA@x.org")], Contact("a", "cy@z.com") in set(raw))
print(raw[0] == raw[1], raw[0] == "ana@x.org", raw[0] != raw[2], raw.count(raw[2]))
