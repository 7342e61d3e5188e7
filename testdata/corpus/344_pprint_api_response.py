# Pretty-print a nested API response to inspect its shape.
import pprint

response = {
    "status": "ok",
    "page": {"number": 1, "size": 3, "total": 42},
    "results": [
        {"id": 17, "title": "Intro to parsing", "authors": ["Lee", "Okafor"], "score": 0.93},
        {"id": 23, "title": "Streaming JSON", "authors": ["Ruiz"], "score": 0.88},
        {"id": 31, "title": "Budgets and limits", "authors": [], "score": 0.71},
    ],
    "next": "https://api.example.org/search?q=parsing&page=2",
}
pprint.pprint(response)
print()
pprint.pprint(response["results"][0], width=40)
print()
print(pprint.pformat(response, depth=2, width=60))
