"""A recursive validator of nested data against a small schema, collecting error paths."""


class SchemaError(Exception):
    def __init__(self, path, message):
        super().__init__(f"{path}: {message}")
        self.path = path


class Validator:
    TYPES = {"string": str, "integer": int, "array": list, "object": dict, "boolean": bool}

    def __init__(self, schema):
        self.schema = schema
        self.errors = []

    def check(self, value, schema=None, path="$"):
        schema = schema or self.schema
        want = self.TYPES[schema["type"]]
        if not isinstance(value, want) or (want is int and isinstance(value, bool)):
            self.errors.append(SchemaError(path, f"expected {schema['type']}, got {type(value).__name__}"))
            return False
        if want is dict:
            for key in schema.get("required", []):
                if key not in value:
                    self.errors.append(SchemaError(f"{path}.{key}", "required"))
            for key, sub in schema.get("properties", {}).items():
                if key in value:
                    self.check(value[key], sub, f"{path}.{key}")
        if want is list:
            for i, item in enumerate(value):
                self.check(item, schema["items"], f"{path}[{i}]")
        return not self.errors


SCHEMA = {"type": "object", "required": ["id", "tags"],
          "properties": {"id": {"type": "integer"}, "tags": {"type": "array", "items": {"type": "string"}},
                         "meta": {"type": "object", "required": ["ok"], "properties": {"ok": {"type": "boolean"}}}}}
for doc in [{"id": 1, "tags": ["a"]}, {"id": True, "tags": ["a", 2], "meta": {}}, ["not", "a", "dict"]]:
    v = Validator(SCHEMA)
    print(v.check(doc), [str(e) for e in v.errors])
