/* strjoin( ) joins strings: an integer is refused at compile time */
BEGIN
{
	trace(strjoin("abc", 1234));
}
