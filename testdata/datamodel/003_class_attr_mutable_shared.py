# A mutable class attribute is one object shared by every instance until an
# instance assigns its own; mutation through an instance changes the class's.
class Bag:
    items = []

    def add(self, x):
        self.items.append(x)


a, b = Bag(), Bag()
a.add(1)
b.add(2)
print(Bag.items, a.items is b.items)
b.items = ["own"]
a.add(3)
print(Bag.items, b.items, a.items is Bag.items)
