# The result of __contains__ is converted to bool.
class Weird:
    def __contains__(self, x):
        return x


print(5 in Weird(), 0 in Weird(), "" in Weird(), [1] in Weird(), 3 not in Weird())
