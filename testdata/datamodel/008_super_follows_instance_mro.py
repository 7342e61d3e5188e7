# super() goes to the next class in the MRO of the instance's type, which can
# be a sibling, not the base named in the class statement.
class Base:
    def chain(self):
        return ["Base"]


class Left(Base):
    def chain(self):
        return ["Left"] + super().chain()


class Right(Base):
    def chain(self):
        return ["Right"] + super().chain()


class Both(Left, Right):
    def chain(self):
        return ["Both"] + super().chain()


print(Both().chain())
print(Left().chain())
