queue = ["a", "b"]
queue.append("c")
queue.extend(["d", "e"])
queue.insert(0, "start")
queue.insert(100, "end")
queue.insert(-1, "before-end")
print(queue)

print(queue.pop(), queue.pop(0), queue.pop(-2))
print(queue)
queue.remove("c")
print(queue)
queue += ["x", "y"]
print(queue, len(queue))

del queue[1]
print(queue)
del queue[1:3]
print(queue)
queue[1:1] = ["i1", "i2"]
print(queue)
queue[:2] = ["Z"]
print(queue)
queue.clear()
print(queue, queue == [])
matrix = [[0] * 3 for _ in range(2)]
matrix[0][1] = 5
print(matrix)
