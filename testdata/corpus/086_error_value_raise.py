def withdraw(balance: float, amount: float) -> float:
    if amount <= 0:
        raise ValueError(f"amount must be positive, got {amount}")
    if amount > balance:
        raise ValueError(f"insufficient funds: balance {balance:.2f}, requested {amount:.2f}")
    return balance - amount


balance = 100.0
for amount in [30, 45.5, 50]:
    balance = withdraw(balance, amount)
    print(f"withdrew {amount}, balance now {balance:.2f}")
