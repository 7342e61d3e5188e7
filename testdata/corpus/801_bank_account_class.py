"""A bank account class with validation, a custom exception and a transaction log."""


class InsufficientFunds(Exception):
    def __init__(self, needed, available):
        super().__init__(f"need {needed}, have {available}")
        self.needed = needed
        self.available = available


class Account:
    interest_rate = 0.02

    def __init__(self, owner, balance=0):
        self.owner = owner
        self.balance = balance
        self.log = []

    def deposit(self, amount):
        if amount <= 0:
            raise ValueError("deposit must be positive")
        self.balance += amount
        self.log.append(("deposit", amount))
        return self

    def withdraw(self, amount):
        if amount > self.balance:
            raise InsufficientFunds(amount, self.balance)
        self.balance -= amount
        self.log.append(("withdraw", amount))
        return self

    def __repr__(self):
        return f"Account({self.owner!r}, balance={self.balance})"


acct = Account("ana", 100)
acct.deposit(50).withdraw(30)
print(acct)
try:
    acct.withdraw(500)
except InsufficientFunds as e:
    print("refused:", e, e.needed - e.available)
try:
    acct.deposit(-5)
except ValueError as e:
    print("refused:", e)
print(acct.log)
vip = Account("bo", 1000)
vip.interest_rate = 0.05
print(acct.interest_rate, vip.interest_rate, Account.interest_rate)
print([a.owner for a in sorted([vip, acct], key=lambda a: a.balance)])
