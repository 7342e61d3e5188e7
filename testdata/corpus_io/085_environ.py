import os

print("SITE_URL" in os.environ, os.getenv("NOT_SET_ANYWHERE", "default"))
print(os.environ.get("SITE_URL", "").startswith("http://127.0.0.1"))
