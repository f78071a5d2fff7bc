module fleetload

go 1.19
