import logging
import sys

logger = logging.getLogger("pipeline")
logger.setLevel(logging.DEBUG)
handler = logging.StreamHandler(sys.stdout)
handler.setLevel(logging.INFO)
handler.setFormatter(logging.Formatter("[%(levelname)-8s] %(name)s: %(message)s"))
logger.addHandler(handler)
logger.propagate = False

stages = ["extract", "transform", "validate", "load"]
rows = 120
for i, stage in enumerate(stages):
    logger.debug("starting %s", stage)
    if stage == "transform":
        rows -= 7
        logger.info("%s dropped %d rows with nulls", stage, 7)
    elif stage == "validate":
        bad = rows % 9
        if bad:
            logger.warning("%s: %d rows failed the schema check", stage, bad)
        rows -= bad
    logger.info("%s done (%d/%d), rows=%d", stage, i + 1, len(stages), rows)

child = logging.getLogger("pipeline.db")
child.info("child logs go through the parent's handler")
child.critical("disk almost full: %.1f%%", 97.25)
print(child.parent.name, child.getEffectiveLevel(), len(logger.handlers), len(child.handlers))
print(logging.getLevelName(35), logging.getLevelName("WARNING"), logging.WARNING, logging.CRITICAL)
logging.addLevelName(25, "NOTICE")
logger.log(25, "a custom level: %s", logging.getLevelName(25))
logger.setLevel(logging.ERROR)
logger.warning("filtered out")
logger.error("only errors now")
