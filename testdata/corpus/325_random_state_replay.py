# Save and restore generator state to replay a sequence of events.
import random

gen = random.Random(99)
events = ["login", "view", "click", "purchase", "logout"]

warmup = [gen.choice(events) for _ in range(3)]
print("warmup:", warmup)

saved = gen.getstate()
first_run = [gen.choice(events) for _ in range(6)]
gen.setstate(saved)
replay = [gen.choice(events) for _ in range(6)]
print("first:", first_run)
print("replay matches:", first_run == replay)

gen.seed(99)
print("reseeded:", [gen.choice(events) for _ in range(3)] == warmup)

other = random.Random(100)
print("other seed:", [other.randint(0, 9) for _ in range(10)])
print("module level untouched by instances:", isinstance(random.random(), float))
