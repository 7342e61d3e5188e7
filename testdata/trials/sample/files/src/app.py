from util import parse_date, slug


def main(args):
    when = parse_date(args[0])
    print(slug(args[1]), when)
