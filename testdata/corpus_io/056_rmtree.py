import os
import shutil

shutil.copytree("logs", "logs_copy")
print(sorted(os.listdir("logs_copy")))
shutil.rmtree("logs_copy")
print(os.path.exists("logs_copy"))
