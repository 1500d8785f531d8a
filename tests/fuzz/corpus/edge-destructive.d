#pragma D option destructive
BEGIN { system("echo %d", 1); raise(9); chill(10); stop(); panic(); exit(1); }
