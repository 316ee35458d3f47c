from tether.surfaces.cli.main import entry

if __name__ == "__main__":  # not when a spawned worker process re-imports the main module
    entry()
