# A maintainer's release helper: never imported by the package.
import subprocess

subprocess.Popen(["git", "tag", "--list"])
