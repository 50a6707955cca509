import subprocess

subprocess.run(["python", "-m", "pytest"])
