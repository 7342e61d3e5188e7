# Values read from a form arrive as strings; one was never converted.
totals = {"apples": 3, "pears": "4", "plums": 5}


def grand_total(counts):
    running = 0
    for fruit, n in counts.items():
        running = running + n
    return running


total = grand_total(totals)
print("total", total)
