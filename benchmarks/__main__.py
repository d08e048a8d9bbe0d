def main() -> None:
    print("no benchmarks yet")


if __name__ == "__main__":
    main()
