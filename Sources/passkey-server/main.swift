import PasskeyServer

await PasskeyCommandLine.main()
