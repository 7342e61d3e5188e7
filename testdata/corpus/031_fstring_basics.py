name = "Ada"
age = 36
languages = ["Python", "Go", "Rust"]
scores = {"math": 95, "art": 88}

print(f"Name: {name}, age: {age}")
print(F"Next year {name} will be {age + 1}")
print(f"{name.upper()} knows {len(languages)} languages: {', '.join(languages)}")
print(f"First language: {languages[0]}, last: {languages[-1]}")
print(f"Math score: {scores['math']}, art score: {scores.get('art', 0)}")
print(f'Single-quoted f-string with "double quotes" inside: {name!r}')
print(f"Braces: {{literal}} and {{{age}}}")
print(f"Expression: {2 * 21} {age > 30} {None} {3.5}")
print(f"Average: {sum(scores.values()) / len(scores)}")
print(f"Best subject: {max(scores, key=scores.get)}")
print(f"Conditional: {'adult' if age >= 18 else 'minor'}")
print(f"{name}" f" and {languages[1]}")
