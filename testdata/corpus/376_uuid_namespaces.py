import uuid

names = {
    uuid.NAMESPACE_DNS: "python.org",
    uuid.NAMESPACE_URL: "https://python.org/",
    uuid.NAMESPACE_OID: "1.3.6.1",
    uuid.NAMESPACE_X500: "cn=John Doe,o=Example",
}
for ns, name in names.items():
    v3 = uuid.uuid3(ns, name)
    v5 = uuid.uuid5(ns, name)
    print(f"{str(ns)[:8]} {name:<24} {v3} {v5}")
    print(f"{'':<33} v{v3.version} {v3.variant == uuid.RFC_4122} v{v5.version} {v5.fields[0]}")

# A hierarchy: each child namespaced under its parent
root = uuid.uuid5(uuid.NAMESPACE_URL, "https://example.com/")
child = uuid.uuid5(root, "projects")
grandchild = uuid.uuid5(child, "onetool")
print(root, child, grandchild, sep="\n")
print(uuid.uuid5(uuid.uuid5(uuid.uuid5(uuid.NAMESPACE_URL, "https://example.com/"), "projects"), "onetool") == grandchild)
