from tether.surfaces.cli.main import main

raise SystemExit(main())
