# A property (a data descriptor) on the class wins over an entry of the same
# name in the instance __dict__; a plain class attribute does not.
class C:
    plain = "class plain"

    @property
    def prop(self):
        return "from property"


c = C()
c.__dict__["prop"] = "from instance dict"
c.__dict__["plain"] = "from instance dict"
print(c.prop)
print(c.plain)
print(sorted(vars(c)))
