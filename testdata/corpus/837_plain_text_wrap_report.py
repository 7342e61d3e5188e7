"""Formatting a text report with textwrap and string methods, with a small formatter class."""
import textwrap


class Report:
    width = 40

    def __init__(self, title):
        self.title = title
        self.sections = []

    def section(self, heading, body):
        self.sections.append((heading, body))
        return self

    def render(self):
        out = [self.title.center(self.width, "="), ""]
        for heading, body in self.sections:
            out.append(heading.upper())
            out.extend(textwrap.wrap(body, self.width - 2, initial_indent="  ", subsequent_indent="  "))
            out.append("")
        return "\n".join(out).rstrip()


r = Report(" Weekly ")
r.section("summary", "Deployments went smoothly this week, with two small rollbacks "
          "caused by configuration drift in the staging cluster.")
r.section("next", "Automate the drift check and add alerts.")
print(r.render())
print(textwrap.shorten("A rather long sentence that will not fit here at all", 30))
print(textwrap.dedent("""\
    one
      two
    three"""))
