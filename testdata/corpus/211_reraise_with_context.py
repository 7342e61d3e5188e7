class StepFailed(Exception):
    """A pipeline step failed; the message names the step."""


def step_parse(text):
    return [int(x) for x in text.split(",")]


def step_check(values):
    if any(v < 0 for v in values):
        raise ValueError(f"negative value in {values}")
    return values


def run_pipeline(text):
    audit = []
    for name, fn in (("parse", step_parse), ("check", step_check)):
        try:
            text = fn(text)
            audit.append(f"{name}: ok")
        except ValueError as e:
            audit.append(f"{name}: {e}")
            if name == "check":
                raise
            raise StepFailed(f"step {name!r} failed") from e
        finally:
            print(" | ".join(audit))
    return text


for text in ["1,2,3", "1,x,3", "4,-5"]:
    try:
        print("result:", run_pipeline(text))
    except StepFailed as e:
        print("StepFailed:", e)
    except ValueError as e:
        print("ValueError re-raised:", e)
