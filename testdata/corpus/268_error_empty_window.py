import statistics

windows = {"mon": [3, 4, 5], "tue": [10, 12], "wed": []}
for day, values in windows.items():
    print(day, statistics.mean(values))
