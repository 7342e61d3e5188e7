# Build an e-mail and a config file from indented templates.
import textwrap


def render_email(name: str, items: list) -> str:
    body = textwrap.dedent(f"""\
        Hello {name},

        Your order has shipped. It contains:
        """)
    lines = "\n".join(f"- {item}" for item in items)
    body += textwrap.indent(lines, "    ") + "\n"
    body += textwrap.dedent("""
        Thanks,
          The Shop
        """)
    return body


print(render_email("Dana", ["notebook", "pen (blue)", "stapler"]))

config = textwrap.dedent("""
    [server]
    host = example.org
    port = 8443

    [logging]
    level = info
""").strip()
print(textwrap.indent(config, "# ", lambda line: line.startswith("[")))
print(textwrap.indent(config, "| "))
