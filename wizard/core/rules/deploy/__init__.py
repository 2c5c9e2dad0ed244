"""The environment and cluster a run is deployed on (DEPLOY-*), over what a deployment provides."""
