# A small simulation with methods and properties (issue 30, item 7):
# accounts and a bank, a class hierarchy with super(), properties with a
# setter, methods calling methods, run for STEPS rounds. CPython and
# onetool run this file unchanged and print the same text; N and STEPS
# set the size (the benchmark rewrites those lines).
N = 400
STEPS = 300


class InsufficientFunds(Exception):
    def __init__(self, account, amount):
        super().__init__(f"{account.name}: cannot take {amount}")
        self.account = account
        self.amount = amount


class Account:
    fee = 0

    def __init__(self, name, balance):
        self.name = name
        self._balance = balance
        self.moves = 0

    @property
    def balance(self):
        return self._balance

    @balance.setter
    def balance(self, value):
        self._balance = value
        self.moves += 1

    @property
    def rich(self):
        return self.balance > 5000

    def deposit(self, amount):
        self.balance += amount

    def withdraw(self, amount):
        cost = amount + self.fee
        if cost > self.balance:
            raise InsufficientFunds(self, amount)
        self.balance -= cost

    def month_end(self):
        pass


class Savings(Account):
    def __init__(self, name, balance, rate):
        super().__init__(name, balance)
        self.rate = rate

    def month_end(self):
        self.deposit(self.balance * self.rate // 1000)


class Checking(Account):
    fee = 1

    def month_end(self):
        if self.balance < 100:
            self.withdraw(0)


class Bank:
    def __init__(self):
        self.accounts = []
        self.failed = 0

    def open(self, account):
        self.accounts.append(account)
        return account

    def transfer(self, src, dst, amount):
        try:
            src.withdraw(amount)
        except InsufficientFunds:
            self.failed += 1
            return False
        dst.deposit(amount)
        return True

    @property
    def total(self):
        return sum(a.balance for a in self.accounts)

    def step(self, t):
        n = len(self.accounts)
        for i in range(n):
            src = self.accounts[i]
            dst = self.accounts[(i * 7 + t) % n]
            self.transfer(src, dst, (i * 13 + t * 17) % 97)
        if t % 30 == 29:
            for a in self.accounts:
                try:
                    a.month_end()
                except InsufficientFunds:
                    self.failed += 1


bank = Bank()
for i in range(N):
    if i % 3 == 0:
        bank.open(Savings(f"s{i}", 1000 + i, 5))
    else:
        bank.open(Checking(f"c{i}", 500 + (i * 37) % 700))

start = bank.total
for t in range(STEPS):
    bank.step(t)

print("accounts", len(bank.accounts), "start", start, "end", bank.total)
print("failed transfers", bank.failed)
print("rich", sum(1 for a in bank.accounts if a.rich))
busiest = max(bank.accounts, key=lambda a: a.moves)
print("busiest", busiest.name, busiest.moves, busiest.balance)
print("kinds", sorted({type(a).__name__ for a in bank.accounts}))
