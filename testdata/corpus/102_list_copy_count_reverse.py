original = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5]
backup = original.copy()
alias = original

original.reverse()
print(original)
print(backup)
print(alias is original, backup is original, backup == original[::-1])

print(original.count(5), original.count(1), original.count(7))
print(original.index(9), original.index(5), original.index(5, 3))

nested = [[1, 2], [3]]
shallow = nested.copy()
shallow[0].append(99)
shallow.append([4])
print(nested, shallow)

letters = list("mississippi")
counts = {ch: letters.count(ch) for ch in letters}
print(counts)
letters.reverse()
print("".join(letters))
print(list(reversed([1, 2, 3])), [1, 2, 3][::-1])
