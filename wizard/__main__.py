"""`python -m wizard` is the same as the `verl-wizard` console script."""

from wizard.cli import main

raise SystemExit(main())
