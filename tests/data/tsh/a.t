Chew, John 1900 4 3 2; 420 350 405; p12 1 1 2; board 1 1 1; class A; newr 1910 1895 1902
Holden, Stewart 1800 3 5 1; 390 500 405; p12 2 2 1; board 2 2 1; class A
Buddhdev, Anand 1750 2 1 5; 401 460 300; p12 1 2 1; board 2 1 2; class B
Castellano, Vince 1600 1 0; 380 50; p12 2 0; board 1 0; class B; off 1
Late, Comer 1500 0 2 3; -50 333 377; p12 0 1 2; board 0 2 2; class B
