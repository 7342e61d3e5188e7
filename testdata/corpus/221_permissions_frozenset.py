ROLE_PERMS = {
    "viewer": frozenset({"read"}),
    "editor": frozenset({"read", "write"}),
    "admin": frozenset({"read", "write", "delete", "invite"}),
}


def permissions(roles):
    combined = frozenset()
    for r in roles:
        combined = combined | ROLE_PERMS.get(r, frozenset())
    return combined


def can(roles, action):
    return action in permissions(roles)


users = {"ann": ["viewer"], "bob": ["editor", "viewer"], "cyd": ["admin"], "dee": ["guest"]}
for user, roles in users.items():
    perms = permissions(roles)
    print(f"{user}: {sorted(perms)} write={can(roles, 'write')} delete={can(roles, 'delete')}")

print(ROLE_PERMS["viewer"] < ROLE_PERMS["editor"] < ROLE_PERMS["admin"])
print(sorted(ROLE_PERMS["admin"] - ROLE_PERMS["editor"]))
cache = {permissions(["editor"]): "editor-level"}
print(cache.get(frozenset(["write", "read"])), len(ROLE_PERMS["admin"]))
