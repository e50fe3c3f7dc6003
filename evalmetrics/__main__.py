def main():
    raise SystemExit("evalmetrics: no command yet")
