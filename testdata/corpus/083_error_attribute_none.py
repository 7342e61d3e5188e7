users = {"u1": {"email": "a@example.com"}, "u2": {"email": None}}


def email_domain(user_id):
    email = users[user_id]["email"]
    return email.split("@")[1]


domains = {uid: email_domain(uid) for uid in users}
for uid, domain in domains.items():
    print(uid, domain)
